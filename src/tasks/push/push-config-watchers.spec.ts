import { PushConfigWatchers } from './push-config-watchers';

describe('PushConfigWatchers', () => {
  it("tells a task's watches of its changes, once each", () => {
    const watchers = new PushConfigWatchers();
    const watch = watchers.add('t1');
    const other = watchers.add('t2');
    watchers.changed('t1');
    expect(watch.takeChanged()).toBe(true);
    expect(watch.takeChanged()).toBe(false);
    expect(other.takeChanged()).toBe(false);
  });

  it('counts every watch as changed while announcements are missed, and once more when they resume', () => {
    const watchers = new PushConfigWatchers();
    const watch = watchers.add('t1');
    watchers.missed();
    expect(watch.takeChanged()).toBe(true);
    expect(watch.takeChanged()).toBe(true);
    watchers.resumed();
    expect(watch.takeChanged()).toBe(true);
    expect(watch.takeChanged()).toBe(false);
  });

  it('forgets a disposed watch', () => {
    const watchers = new PushConfigWatchers();
    const watch = watchers.add('t1');
    watch.dispose();
    watchers.changed('t1');
    expect(watch.takeChanged()).toBe(false);
  });
});
