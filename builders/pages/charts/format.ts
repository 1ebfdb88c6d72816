// Number and time formats of the preview, shared by the build and the browser script. They live in
// core/figures.ts, which the CLI reads too (it may import nothing from builders/).
export * from '../../../core/figures.ts';
