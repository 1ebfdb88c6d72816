export declare const ENTRIES: Record<string, string>;
export declare function bundle(): Promise<void>;
