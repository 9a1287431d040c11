import type TurndownService from 'turndown';
import { ConfigError } from '../../errors/index.ts';

/** A converted page: its title (when it has one) and its main content as Markdown. */
export interface MarkdownPage {
  title: string;
  markdown: string;
}

/** What the rules below use of the DOM turndown parses into (domino), typed here: the runtime has no DOM lib. */
interface DomElement {
  readonly nodeName: string;
  getAttribute(name: string): string | null;
  contains(other: DomElement): boolean;
  readonly ownerDocument: { querySelectorAll(selector: string): ArrayLike<DomElement> };
}

// Never content: code, styling, embedded apps, navigation, sidebars and forms.
const junk = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'nav',
  'aside',
  'form',
  'button',
  'input',
  'select',
  'textarea',
  'dialog',
  'head',
  'meta',
  'link',
]);

// Where a page keeps its main content, best first; all <article>s when there is no main element.
const contentSelectors = ['main', '[role="main"]', 'article'];

let loading: Promise<typeof TurndownService> | undefined;

/**
 * Turndown, loaded on first use: it is an optional peer of the runtime (the `cli` and `all` installs bring
 * it), needed only to convert HTML; JSON and plain text pages work without it.
 */
function loadTurndown(): Promise<typeof TurndownService> {
  loading ??= import('turndown').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
      throw new ConfigError(
        'webfetch needs the turndown package to convert HTML pages to Markdown: npm install turndown ' +
          '(the @keel/cli and @keel/all installs include it).',
        { package: 'turndown' },
      );
    },
  );
  return loading;
}

/**
 * Converts an HTML page to Markdown: only its main content (`<main>`, else role=main, else its
 * `<article>`s, else the whole body) without scripts, styles, navigation, sidebars or forms (and without
 * the page's header and footer), links and images kept with addresses made absolute against `base`.
 */
export async function htmlToMarkdown(html: string, base: URL): Promise<MarkdownPage> {
  const Turndown = await loadTurndown();
  const service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  let title = '';
  let roots: DomElement[] | undefined;
  const contentRoots = (node: DomElement): DomElement[] => {
    roots ??= findContentRoots(node);
    return roots;
  };
  const captured: string[] = [];
  const element = (node: unknown) => node as DomElement;

  service.addRule('keel-link', {
    filter: (node) => element(node).nodeName === 'A' && Boolean(element(node).getAttribute('href')),
    replacement: (content, node) => {
      const href = absolute(element(node).getAttribute('href') ?? '', base);
      if (href === undefined) return content;
      return `[${content}](${linkDestination(href)}${linkTitle(element(node))})`;
    },
  });
  service.addRule('keel-image', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = service.escape(clean(element(node).getAttribute('alt')));
      const src = absolute(element(node).getAttribute('src') ?? '', base);
      // Inline (data:) images are kilobytes of base64 the model cannot look at.
      if (src === undefined || src.startsWith('data:')) return alt;
      return `![${alt}](${linkDestination(src)}${linkTitle(element(node))})`;
    },
  });
  service.addRule('keel-title', {
    filter: 'title',
    replacement: (content) => {
      title ||= content.trim();
      return '';
    },
  });
  // Header and footer are the site's, unless they sit inside the main content (an article's byline).
  service.addRule('keel-drop', {
    filter: (node) => {
      const name = element(node).nodeName.toLowerCase();
      if (junk.has(name)) return true;
      if (name !== 'header' && name !== 'footer') return false;
      return !contentRoots(element(node)).some((root) => root.contains(element(node)));
    },
    replacement: () => '',
  });
  // The content roots' Markdown is kept aside; when there are any, it is the page.
  service.addRule('keel-content', {
    filter: (node) => {
      const roots = contentRoots(element(node));
      return (
        roots.includes(element(node)) && !roots.some((root) => root !== node && root.contains(element(node)))
      );
    },
    replacement: (content) => {
      if (content.trim() !== '') captured.push(content.trim());
      return `\n\n${content}\n\n`;
    },
  });

  const whole = service.turndown(html);
  return { title, markdown: captured.length > 0 ? captured.join('\n\n') : whole };
}

function findContentRoots(node: DomElement): DomElement[] {
  for (const selector of contentSelectors) {
    const found = Array.from(node.ownerDocument.querySelectorAll(selector));
    if (found.length > 0) return found;
  }
  return [];
}

/** `href` made absolute against `base`; undefined for script links and what cannot be parsed. */
function absolute(href: string, base: URL): string | undefined {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'javascript:' ? undefined : url.href;
  } catch {
    return undefined;
  }
}

// Escaping as turndown's own link and image rules do.
function linkDestination(href: string): string {
  const escaped = href.replace(/([<>()])/g, '\\$1');
  return escaped.includes(' ') ? `<${escaped}>` : escaped;
}

function linkTitle(node: DomElement): string {
  const title = clean(node.getAttribute('title'));
  return title ? ` "${title.replace(/"/g, '\\"')}"` : '';
}

function clean(attribute: string | null): string {
  return attribute ? attribute.replace(/(\n+\s*)+/g, '\n') : '';
}
