// oidc-provider ships no types; the test provider (./oidcProvider.ts) uses this much of it.
declare module 'oidc-provider' {
  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }
  interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    grantId?: string;
    session: { accountId: string };
    params: { client_id: string };
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
    on(event: string, listener: (...args: never[]) => void): void;
    use(middleware: (ctx: never, next: () => Promise<void>) => Promise<void>): void;
    interactionDetails(
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
    ): Promise<InteractionDetails>;
    interactionFinished(
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: {
      new (init: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant>;
    };
  }
}
