// package.json: the entry points name files the build makes and the packed artifact ships (scripts/pack-smoke.sh runs them).
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
};
const build = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] };

/** The TypeScript source that `npm run build` compiles to a dist/ file. */
function sourceOf(distFile: string): string {
  return path.join(ROOT, distFile.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
}

describe('package.json', () => {
  for (const [name, file] of Object.entries(pkg.bin)) {
    describe(`bin ${name} (${file})`, () => {
      it('is compiled from a source the build includes, with a node shebang', () => {
        expect(file).to.match(/^dist\/.+\.js$/);
        expect(existsSync(sourceOf(file)), sourceOf(file)).to.equal(true);
        expect(build.include).to.include(path.relative(ROOT, sourceOf(file)).split(path.sep)[0]);
        expect(readFileSync(sourceOf(file), 'utf8')).to.match(/^#!\/usr\/bin\/env node\n/);
      });
    });
  }

  describe('npm start', () => {
    it("runs the compiled entrypoint without compiling, in place of npm's shell (which would not pass SIGTERM on)", () => {
      expect(pkg.scripts.start).to.match(/^exec node .*\bdist\/server\/main\.js$/);
      expect(existsSync(sourceOf('dist/server/main.js'))).to.equal(true);
    });

    it('gives node --experimental-async-context-frame where this Node has it as a flag (22, 23; 24 has it on by default)', () => {
      const flag = '--experimental-async-context-frame';
      const argv = execFileSync('sh', ['-c', pkg.scripts.start!.replace(/^exec node /, 'echo ')], { cwd: ROOT });
      expect(argv.toString().trim()).to.equal(
        process.allowedNodeEnvironmentFlags.has(flag) ? `${flag} dist/server/main.js` : 'dist/server/main.js',
      );
    });
  });

  describe('files', () => {
    it('ships dist/ and no TypeScript source folder', () => {
      expect(pkg.files).to.include('dist');
      for (const dir of build.include) expect(pkg.files).not.to.include(dir);
    });
  });
});
