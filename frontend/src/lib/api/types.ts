/**
 * Names for shapes of the generated API types (`schema.d.ts`, from
 * openapi.yaml). Nothing here is written by hand: each name is looked up from
 * an operation, so it follows the contract when `npm run gen:api` reruns.
 */
import type { paths } from './schema';

/** The body of whichever JSON media type the operation declares (`application/json; charset=utf-8`). */
type JsonContent<T> = T extends { content: infer C } ? C[keyof C] : never;

/** The JSON body an operation answers with a given status. */
export type ResponseBody<
  P extends keyof paths,
  M extends keyof paths[P],
  S extends number,
> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? JsonContent<R[S]>
    : never
  : never;

/** The JSON body an operation accepts. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: infer B;
}
  ? JsonContent<NonNullable<B>>
  : never;

export type SessionUser = ResponseBody<'/api/auth/login', 'post', 200>['user'];
export type Role = SessionUser['role'];
export type SessionInfo = ResponseBody<'/api/auth/session', 'get', 200>;
export type OrgUser = ResponseBody<'/api/account-info', 'get', 200>[number];
export type Preferences = ResponseBody<'/api/me/preferences', 'get', 200>;
export type Theme = Preferences['theme'];
/** A plan module's key (`products`, `inventory`, …), as the server lists them. */
export type ModuleKey = SessionInfo['modules'][number];
/** A plan module with its name and operations, from the session answer's catalogue. */
export type PlanModule = SessionInfo['moduleCatalogue'][number];
