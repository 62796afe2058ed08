// The job registry as the tests build it: the production registry with the light renderer (a valid
// PDF and PNG without fonts or layout), since most files' subject is the queue, the data and the
// mail, not the drawing. Files that read a PDF's text or a card's pixels pass a real renderer.
import { createRegistry, type JobDeps } from '../../api/jobs/registry.ts';
import { lightRenderer } from './light-renderer.ts';

export const testRegistry = (deps: JobDeps = {}) => createRegistry({ renderer: lightRenderer(), ...deps });
