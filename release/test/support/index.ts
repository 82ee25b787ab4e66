/**
 * What the release tool's tests and the server's tests share (`@shop/release/testing`): temporary
 * directories removed after each file, small but complete builds, a local S3-compatible server and
 * the two storages the release flow runs on.
 */
export { removeTempDirs, tempDir } from './temp-dirs.ts';
export { cartRoute, fakeAreaBuild, fakeShellBuild } from './fake-builds.ts';
export { S3RVER_CREDENTIALS, startS3Server, type S3TestServer } from './s3-server.ts';
export { provenance, refusal, releaseBench, type Backend } from './release-backends.ts';
