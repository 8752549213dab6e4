/**
 * Jest setup (jest.config.js `setupFiles`): every control API answer served under the tests is
 * checked against the schema its route declares (src/control/answer-check.ts), so that each test
 * calling the control API also checks the OpenAPI document. Processes the tests spawn inherit it.
 */
process.env.BWC_EMU_CHECK_RESPONSES = '1';
