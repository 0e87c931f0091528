import { TEST_API_KEY } from '../../support/test-app';

/** A key with operator rights (granted by a rule, as an operator would), beside the tests' usual key, which has none. */
export const OPERATOR_KEY = 'operator-key-0123456789abcdef';

export const OPERATOR_KEYS = `tester=${TEST_API_KEY},operator=${OPERATOR_KEY}`;

export const OPERATOR_RULE_TOML = `
[[auth.rules]]
keys = ["operator"]
admin = true
`;
