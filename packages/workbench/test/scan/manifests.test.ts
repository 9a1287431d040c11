import { describe, expect, test } from 'vitest';
import { parseCargoToml } from '../../src/scan/manifests/cargo.ts';
import { parseGradle, parsePom } from '../../src/scan/manifests/jvm.ts';
import { parsePackageJson } from '../../src/scan/manifests/npm.ts';
import {
  parseComposerJson,
  parseDotnetProject,
  parseGemfile,
} from '../../src/scan/manifests/other-ecosystems.ts';
import { parsePipfile, parseRequirements, parseSetupPy } from '../../src/scan/manifests/python.ts';

describe('manifest parsers', () => {
  test.each([
    [
      'Cargo.toml',
      parseCargoToml(
        'crates/cli/Cargo.toml',
        '[package]\nname = "acme-cli"\n\n[[bin]]\nname = "acme"\npath = "src/bin/acme.rs"\n\n[dependencies]\nserde = { version = "1", features = ["derive"] }\ntokio = "1"\n\n[dev-dependencies]\ninsta = "1"\n',
      ),
      { kind: 'rust', name: 'acme-cli', dependencies: ['serde', 'tokio', 'insta'] },
      ['crates/cli/src/bin/acme.rs'],
    ],
    [
      'pom.xml',
      parsePom(
        'pom.xml',
        '<project><parent><artifactId>spring-boot-starter-parent</artifactId></parent><artifactId>shop</artifactId><dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId></dependency></dependencies></project>',
      ),
      { kind: 'maven', name: 'shop', dependencies: ['org.junit.jupiter:junit-jupiter'] },
      [],
    ],
    [
      'build.gradle.kts',
      parseGradle(
        'app/build.gradle.kts',
        'dependencies {\n  implementation("com.squareup.okhttp3:okhttp:4.12.0")\n  testImplementation \'junit:junit:4.13.2\'\n}\n',
      ),
      { kind: 'gradle', dependencies: ['com.squareup.okhttp3:okhttp', 'junit:junit'] },
      [],
    ],
    [
      'Gemfile',
      parseGemfile('Gemfile', "source 'https://rubygems.org'\ngem 'rails', '~> 7'\n  gem \"rspec-rails\"\n"),
      { kind: 'ruby', dependencies: ['rails', 'rspec-rails'] },
      [],
    ],
    [
      'composer.json',
      parseComposerJson(
        'composer.json',
        '{"name":"acme/site","require":{"php":">=8.2","ext-json":"*","laravel/framework":"^11"},"require-dev":{"phpunit/phpunit":"^11"}}',
      ),
      { kind: 'php', name: 'acme/site', dependencies: ['laravel/framework', 'phpunit/phpunit'] },
      [],
    ],
    [
      '.csproj',
      parseDotnetProject(
        'src/Api/Api.csproj',
        '<Project><ItemGroup><PackageReference Include="xunit" Version="2.9.0" /></ItemGroup></Project>',
      ),
      { kind: 'dotnet', name: 'Api', dependencies: ['xunit'] },
      [],
    ],
    [
      'requirements.txt',
      parseRequirements(
        'requirements-dev.txt',
        '# tools\n-r requirements.txt\nDjango==5.0\npytest[testing]>=8 ; python_version > "3.9"\n\n--index-url x\n',
      ),
      { kind: 'python', dependencies: ['Django', 'pytest'] },
      [],
    ],
    [
      'Pipfile',
      parsePipfile('Pipfile', '[packages]\nflask = "*"\n\n[dev-packages]\n"pytest" = "*"\n'),
      { kind: 'python', dependencies: ['flask', 'pytest'] },
      [],
    ],
    [
      'setup.py',
      parseSetupPy('setup.py', 'setup(\n  name="legacy",\n  install_requires=["six>=1", \'attrs\'],\n)\n'),
      { kind: 'python', name: 'legacy', dependencies: ['six', 'attrs'] },
      [],
    ],
    [
      'package.json with a string bin and node --test',
      parsePackageJson('tools/x/package.json', '{"bin":"cli.js","scripts":{"test":"node --test test/"}}'),
      { kind: 'npm', scripts: { test: 'node --test test/' }, dependencies: [] },
      ['tools/x/cli.js'],
    ],
  ])('%s', (_name, parsed, manifest, entries) => {
    expect(parsed?.manifest).toMatchObject(manifest);
    expect(parsed?.entries).toEqual(entries);
  });

  test('node --test in a script is a framework hint; broken JSON is no manifest', () => {
    expect(parsePackageJson('package.json', '{"scripts":{"test":"node --test"}}')?.frameworks).toEqual([
      'node:test',
    ]);
    expect(parsePackageJson('package.json', '{ not json')).toBeNull();
    expect(parseComposerJson('composer.json', '[]')).toBeNull();
  });
});
