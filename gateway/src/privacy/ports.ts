/**
 * The privacy area's public face: the session context that attributes outbound requests to
 * the chat turn that caused them. Other areas import only this file.
 */
export { createSessionContext, type SessionContext, type SessionScope } from './session-context.ts';
