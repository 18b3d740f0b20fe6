// s3rver ships no types; the test S3 service (./s3.ts) uses this much of it.
declare module 's3rver' {
  interface KoaContext {
    method: string;
    path: string;
    url: string;
    querystring: string;
    query: Record<string, string | string[] | undefined>;
    headers: Record<string, string | string[] | undefined>;
    status: number;
    type: string;
    body: unknown;
  }
  type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void;
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      resetOnClose?: boolean;
      vhostBuckets?: boolean;
      configureBuckets?: { name: string }[];
    });
    /** Koa's middleware list: what runs for each request, in order. */
    middleware: Middleware[];
    run(): Promise<import('node:net').AddressInfo>;
    close(): Promise<void>;
  }
}
