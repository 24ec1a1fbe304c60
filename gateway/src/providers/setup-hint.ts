/**
 * Where a newcomer sets up a provider: named by every "no model works" message (chat errors,
 * `/api/v1/status` `model_ready.fix`), so each one leads to the same two places.
 */
export const SETUP_PLACES = "run `hearth setup`, or open the web client's set-up page (/#setup)";

/** The sentence appended to errors that no model could answer. */
export const SETUP_HINT = `To set up a provider: ${SETUP_PLACES}.`;
