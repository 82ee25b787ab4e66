/** The server's own lines at its start (plain text on stdout, beside the JSON log lines of requests and jobs). */
export const serverLog = (message: string): void => void process.stdout.write(`[server] ${message}\n`);
