export const TYPES_FILE: string;
export function payloadTypes(): Promise<string>;
export function payloadTypeFiles(): Promise<Array<{ file: string; text: string }>>;
