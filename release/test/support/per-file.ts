/**
 * Runs for every test file of the release tool: the temporary directories it made are gone before
 * the next file starts.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dirs.ts';

afterAll(() => removeTempDirs());
