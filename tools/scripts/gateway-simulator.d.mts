export type StartedGatewaySimulator = { url: string; secret: string; stop(): Promise<void> };

export function gatewaySecret(dataDir: string, env?: NodeJS.ProcessEnv): string;

export function startGatewaySimulator(options: {
  dataDir: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
  output?: (line: string) => void;
}): Promise<StartedGatewaySimulator>;
