/**
 * `@hearth/client`: the gateway's REST interface as types, generated from its OpenAPI document
 * (client/src/openapi.ts), with a few helpers to name a route's parts by its path. Types only:
 * each client keeps its own transport (the browser's fetch, the CLI's node:http), and a route
 * change that breaks a client fails that client's typecheck.
 */
import type { OperationRequestBodyContent, SuccessResponseJSON } from 'openapi-typescript-helpers';
import type { components, operations, paths } from './openapi.ts';

export type { components, operations, paths };

type Methods = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** A REST path under `/api/v1` as a client writes it: `/status`, `/approvals/{approval_id}/deny`. */
export type ApiPath = {
  [P in keyof paths]: P extends `/api/v1${infer Rest}` ? Rest : never;
}[keyof paths];

/** The methods a REST path answers, as sent: `'GET'`, `'POST'`… */
export type ApiMethod<P extends ApiPath> = {
  [M in Methods]: paths[`/api/v1${P}`] extends { [K in M]: object } ? Uppercase<M> : never;
}[Methods];

/** The operation `method path` of the document. */
export type ApiOperation<P extends ApiPath, M extends ApiMethod<P> = ApiMethod<P>> = NonNullable<
  paths[`/api/v1${P}`][Lowercase<M>]
>;

/** What a successful call answers (its JSON body). */
export type ApiResponse<
  P extends ApiPath,
  M extends ApiMethod<P> = 'GET' & ApiMethod<P>,
> = SuccessResponseJSON<ApiOperation<P, M>>;

/** The JSON body a call sends. */
export type ApiBody<P extends ApiPath, M extends ApiMethod<P>> = OperationRequestBodyContent<
  ApiOperation<P, M>
>;

/** The path parameters a call fills in (`{approval_id}` → `approval_id`). */
export type ApiParams<P extends ApiPath, M extends ApiMethod<P>> =
  ApiOperation<P, M> extends { parameters: { path: infer T } } ? T : never;

/** The query string a call takes. */
export type ApiQuery<P extends ApiPath, M extends ApiMethod<P>> =
  ApiOperation<P, M> extends { parameters: { query?: infer T } } ? NonNullable<T> : never;

/**
 * A wire shape as a tolerant reader sees it: every field may be missing, so a view that checks
 * what it reads keeps working with an older or newer gateway.
 */
export type Loose<T> = T extends readonly (infer E)[]
  ? Loose<E>[]
  : T extends object
    ? { [K in keyof T]?: Loose<T[K]> }
    : T;

/** An approval waiting for a decision (GET /approvals/pending). */
export type PendingApproval = ApiResponse<'/approvals/pending'>['pending'][number];

/** The gateway's status document (GET /status). */
export type GatewayStatus = ApiResponse<'/status'>;
