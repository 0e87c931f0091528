import type * as OnBehalfOf from './on-behalf-of';

/** The module afresh: whether it follows whom work is for is set once for the process. */
function freshModule(): typeof OnBehalfOf {
  let loaded!: typeof OnBehalfOf;
  jest.isolateModules(() => (loaded = jest.requireActual('./on-behalf-of')));
  return loaded;
}

const afterAwait = async <T>(read: () => T): Promise<T> => {
  await Promise.resolve();
  return read();
};

describe('onBehalfOf / asSwitchboard', () => {
  it('enter no context until an upstream exchanges tokens: nothing reads it then', async () => {
    const { onBehalfOf, asSwitchboard, actingAs } = freshModule();
    expect(asSwitchboard(() => actingAs())).toBeUndefined();
    await expect(onBehalfOf('caller-token', () => afterAwait(actingAs))).resolves.toBeUndefined();
  });

  it('once followed, carry the caller or Switchboard through the work, awaits included', async () => {
    const { onBehalfOf, asSwitchboard, actingAs, followWhomWorkIsFor } = freshModule();
    followWhomWorkIsFor();
    await expect(asSwitchboard(() => afterAwait(actingAs))).resolves.toBe('switchboard');
    await expect(onBehalfOf('caller-token', () => afterAwait(actingAs))).resolves.toBe('caller-token');
    // A request without a token inside Switchboard's own work is no longer Switchboard's.
    await expect(asSwitchboard(() => onBehalfOf(undefined, () => afterAwait(actingAs)))).resolves.toBeUndefined();
    expect(actingAs()).toBeUndefined();
  });
});
