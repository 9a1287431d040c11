import type { Artifact } from '@keel/protocol/runtime';
import { useState } from 'react';
import { type ApiError, asApiError, errorFromResponse } from '../../api/errors.ts';
import { authorizedFetch } from '../../api/request.ts';
import { Markdown } from '../../components/lazy.tsx';
import { ErrorNote, Loading } from '../../components/status.tsx';
import { formatBytes } from '../format.ts';

const readable = /^(text\/|application\/(json|x-ndjson|yaml|xml))/;
const shownUpTo = 512_000;

/** An artifact of the run: its name, kind and size; a text one opens in place, any one downloads. */
export function ArtifactView({ artifact }: { artifact: Artifact }) {
  const [content, setContent] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const url = `/runtime/artifacts/${encodeURIComponent(artifact.id)}/content`;

  // The content needs the API key, so it is fetched here rather than linked.
  async function fetchContent(): Promise<Response | null> {
    setError(null);
    setLoading(true);
    try {
      const response = await authorizedFetch(url);
      if (!response.ok) throw await errorFromResponse(response);
      return response;
    } catch (failure) {
      setError(asApiError(failure));
      return null;
    } finally {
      setLoading(false);
    }
  }
  async function view() {
    if (open) return setOpen(false);
    if (content === null) {
      const response = await fetchContent();
      if (!response) return;
      const text = await response.text();
      setContent(artifact.media_type.includes('json') ? pretty(text) : text);
    }
    setOpen(true);
  }
  async function download() {
    const response = await fetchContent();
    if (!response) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = artifact.name.split('/').at(-1) || artifact.id;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  return (
    <div className="artifact" data-artifact-id={artifact.id}>
      <div className="row">
        <code>{artifact.name}</code>
        <span className="hint">
          {artifact.kind} · {artifact.media_type} · {formatBytes(artifact.size)}
        </span>
        <span className="spacer" />
        {readable.test(artifact.media_type) && artifact.size <= shownUpTo ? (
          <button type="button" className="button-link" aria-expanded={open} onClick={() => void view()}>
            {open ? 'Hide' : 'View'}
          </button>
        ) : null}
        <button type="button" className="button-link" onClick={() => void download()}>
          Download
        </button>
      </div>
      {loading ? <Loading what="artifact" /> : null}
      <ErrorNote error={error} />
      {open && content !== null ? (
        artifact.media_type === 'text/markdown' ? (
          <Markdown>{content}</Markdown>
        ) : (
          <pre className="tool-result">{content}</pre>
        )
      ) : null}
    </div>
  );
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
