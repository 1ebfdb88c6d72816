export const TYPES_FILE: string;
export function payloadTypes(): Promise<string>;
