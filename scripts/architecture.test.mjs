// docs/ARCHITECTURE.md's server table says what each module owns and may use; this test reads the code and fails
// when the table and the code disagree: the tables each module declares in its tables.ts, and the folders each
// module's files import (apps/server/src/modules/*/**, tests aside).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const src = join(root, 'apps/server/src');
const modules = readdirSync(join(src, 'modules'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** The one module that may declare reads of tables other modules own: the read side of trades. */
const READ_SIDE = ['trade-views'];

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );

const backticked = (text) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The server table of docs/ARCHITECTURE.md: per module, the tables it owns and reads, and what it may use. */
function documented() {
  const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  const rows = {};
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`modules\/([a-z-]+)`$/.exec(cells[1] ?? '');
    if (!folder) continue;
    const owns = cells[2];
    const tables = /^tables ((?:`[a-z_]+`(?:, )?)+):/.exec(owns);
    const reads = /\breads ((?:`[a-z_]+`(?:, )?)+)/.exec(owns);
    rows[folder[1]] = {
      tables: tables ? backticked(tables[1]).sort() : [],
      reads: reads ? backticked(reads[1]).sort() : [],
      uses: backticked(cells[3]).sort(),
    };
  }
  return rows;
}

/** What a module's files import, by folder: another module's name, `db`, `lib`, `integrations/<name>`, … */
function importedFolders(mod) {
  const folders = new Map();
  const files = walk(join(src, 'modules', mod)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gm),
      ...text.matchAll(/^\s*import\s+'([^']+)'/gm),
      ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
    ].map((m) => m[1]);
    for (const specifier of specifiers.filter((s) => s.startsWith('.'))) {
      const parts = relative(src, resolve(dirname(file), specifier)).split('/');
      const folder =
        parts[0] === 'modules' ? parts[1] : parts[0] === 'integrations' ? `integrations/${parts[1]}` : parts[0];
      if (folder === mod) continue;
      if (!folders.has(folder)) folders.set(folder, new Set());
      folders.get(folder).add(relative(src, file));
    }
  }
  return folders;
}

/** The `Pick<Database, …>` types of a module's tables.ts: type name → the tables it names. */
function declaredSlices(mod) {
  let text;
  try {
    text = readFileSync(join(src, 'modules', mod, 'tables.ts'), 'utf8');
  } catch {
    return {};
  }
  const slices = {};
  for (const [, name, body] of text.matchAll(/export type (\w+) =([^;]+);/g)) {
    const picks = [...body.matchAll(/Pick<\s*Database,([^>]+)>/g)].flatMap((m) => [...m[1].matchAll(/'([a-z_]+)'/g)]);
    if (picks.length > 0) slices[name] = picks.map((m) => m[1]).sort();
  }
  return slices;
}

const pascal = (mod) => mod.replace(/(^|-)([a-z])/g, (_, __, c) => c.toUpperCase());

const schemaTables = () => {
  const schema = readFileSync(join(src, 'db/schema.ts'), 'utf8');
  const body = /export interface Database \{([^}]+)\}/.exec(schema)[1];
  return [...body.matchAll(/^\s*([a-z_]+):/gm)].map((m) => m[1]).sort();
};

describe('docs/ARCHITECTURE.md matches the server code', () => {
  const doc = documented();

  it('has one row per module folder', () => {
    expect(Object.keys(doc).sort()).toEqual(modules);
  });

  it.each(modules)('modules/%s: the folders its files import are the row\'s "may use"', (mod) => {
    const imported = importedFolders(mod);
    const actual = [...imported.keys()].sort();
    const why = actual.map((folder) => `${folder}: ${[...imported.get(folder)].join(', ')}`).join('\n');
    expect(actual, `imported by modules/${mod}:\n${why}`).toEqual(doc[mod]?.uses);
  });

  it.each(modules)('modules/%s: the tables its tables.ts owns are the row\'s "tables"', (mod) => {
    // The read side's `<Name>Tables` names what it reads; it owns no table.
    const own = READ_SIDE.includes(mod) ? [] : (declaredSlices(mod)[`${pascal(mod)}Tables`] ?? []);
    expect(own).toEqual(doc[mod]?.tables);
  });

  it('every table of the schema has one owner (data_versions: the shared slice of db/)', () => {
    const owned = modules.flatMap((mod) => doc[mod]?.tables ?? []);
    expect([...owned, 'data_versions'].sort()).toEqual(schemaTables());
  });

  it('the arrows between modules close no loop', () => {
    const arrows = Object.fromEntries(modules.map((m) => [m, (doc[m]?.uses ?? []).filter((u) => modules.includes(u))]));
    const loops = [];
    const visit = (mod, path) => {
      if (path.includes(mod)) return void loops.push([...path.slice(path.indexOf(mod)), mod].join(' → '));
      for (const next of arrows[mod]) visit(next, [...path, mod]);
    };
    for (const mod of modules) visit(mod, []);
    expect(loops).toEqual([]);
  });

  it.each(modules)('modules/%s: declares reads of tables it does not own only as the read side', (mod) => {
    const owner = Object.fromEntries(modules.flatMap((m) => (doc[m]?.tables ?? []).map((t) => [t, m])));
    const foreign = Object.entries(declaredSlices(mod)).flatMap(([, tables]) =>
      tables.filter((t) => owner[t] !== mod && t !== 'data_versions'),
    );
    const expected = READ_SIDE.includes(mod) ? doc[mod].reads : [];
    expect([...new Set(foreign)].sort()).toEqual(expected);
  });
});
