import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cmi5Package, multiScoPackage, scorm12Package, scorm2004Package } from '../tests/support/content-packages.ts';

/**
 * Builds the packages in docs/demo-packages/ (issue 35): the same SCORM 1.2, SCORM 2004, multi-SCO and cmi5
 * packages the tests play, for someone trying the platform to upload in a course's block editor
 * ("Paket SCORM/cmi5"). Run: node scripts/build-demo-packages.ts
 */
const out = join(import.meta.dirname, '..', 'docs', 'demo-packages');
const packages: Record<string, Buffer> = {
  'shranjevanje-zdravil-scorm12.zip': scorm12Package(),
  'farmakovigilanca-scorm2004.zip': scorm2004Package({ edition: 4 }),
  'varna-uporaba-zdravil-vec-enot-scorm12.zip': multiScoPackage(),
  'hramba-cepiv-cmi5.zip': cmi5Package(),
};
for (const [name, bytes] of Object.entries(packages)) {
  writeFileSync(join(out, name), bytes);
  process.stdout.write(`${name}: ${bytes.length} B\n`);
}
