// The modules of the Worker's bundle that exist only there: the deployment's baked data and validators
// (virtual modules made by gateway/worker/bundle.ts), and the runtime's own `cloudflare:workers`, as far as it is used.
declare module 'edge:deployment' {
  const baked: import('./baked.ts').Baked;
  export default baked;
}

declare module 'edge:validators' {
  const checks: Readonly<Record<string, import('../../builders/contract/validation.ts').CompiledCheck>>;
  export = checks;
}

declare module 'cloudflare:workers' {
  export abstract class DurableObject<Env = unknown> {
    protected ctx: DurableObjectState;
    protected env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
  export interface DurableObjectState {
    storage: {
      kv: { get<T>(key: string): T | undefined; put(key: string, value: unknown): void };
      setAlarm(scheduledTimeMs: number): Promise<void>;
      getAlarm(): Promise<number | null>;
      deleteAll(): Promise<void>;
    };
    blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>;
  }
}
