import { settingsNeedingRestart } from '../../src/catalog/settings-needing-restart';
import { testConfig } from '../support/test-app';

describe('settingsNeedingRestart', () => {
  it("names the settings outside the catalog that changed, and none of the catalog's", () => {
    const before = testConfig();
    const after = testConfig({
      PORT: '9999',
      SWITCHBOARD_API_KEYS: 'other=another-key-0123456789',
      SWITCHBOARD_RATE_LIMIT: '7',
    });
    expect(settingsNeedingRestart(before, after).sort()).toEqual(['rate_limit.limit', 'server.port']);
    expect(settingsNeedingRestart(before, testConfig())).toEqual([]);
  });
});
