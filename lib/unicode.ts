// Unicode's invisible formatting characters that change what a reader sees without being seen: the
// bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E-F, U+202A-E, U+2066-9; the
// "Trojan Source" characters, CVE-2021-42574) and the zero-width space (U+200B), which hides a
// difference between two URLs or names that look the same. The zero-width (non-)joiners are not among
// them: scripts and emoji sequences need them. Every sanitiser of outside text (log lines, the CLI's
// output) drops these.
export const INVISIBLE_FORMATTING = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
