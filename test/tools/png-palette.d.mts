export declare function toPalettePng(png: Buffer): Buffer;
