// A taken PORT, said once for every program that listens on it for `npm start`: the build that runs
// first (builders/build/build.ts, --if-stale) and the gateway (gateway/main.ts). The way out is another PORT,
// not PORT=0: the site's links name its port, and with PORT=0 they would name 8080.
import { createServer } from 'node:net';

/** The reason, for a line such as `gateway: cannot start: <reason>`. */
export function portTakenReason(host: string, port: number): string {
  return `port ${port} on ${host} is taken (EADDRINUSE); stop what listens there or set PORT to another port (PORT=${port === 65535 ? 8081 : port + 1} npm start)`;
}

/**
 * Why a listen on host:port is refused (its error code: EADDRINUSE, EADDRNOTAVAIL, …), or undefined when
 * it would succeed: a listen that is closed at once. The Worker's program asks it before workerd, which
 * says why it cannot listen only after seconds (gateway/worker/main.ts).
 */
export function listenRefusal(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'EUNKNOWN'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/**
 * Whether something already listens on host:port. Only EADDRINUSE counts; any other refusal (an address
 * not of this machine) is left for the gateway to report.
 */
export async function portIsTaken(host: string, port: number): Promise<boolean> {
  return (await listenRefusal(host, port)) === 'EADDRINUSE';
}
