export declare function forkMinutes(repository: string): { hourly: number; midnight: number };
export declare function withForkSchedule(
  text: string,
  options: { hourly: number; midnight: number; zone?: string },
): string;
