// scrypt's cost (SCRYPT_COST) in every test's context and in every process a test starts on the
// same database: a sixteenth of the product's work per password, for the hundreds of accounts the
// tests create. The product's own cost is tested in tests/unit/password-hash.test.ts.
export const TEST_SCRYPT_COST = '10';
