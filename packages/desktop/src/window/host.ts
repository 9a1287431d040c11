// The window process: one GTK window holding a WebKit view of the workbench. GTK's main loop owns this
// process's thread (Node's own loop does not run while it does), so it runs apart from the shell, which
// keeps its loop for the service, the single-instance socket and the notifications; the two talk in JSON
// lines over this process's stdin (watched by GLib) and stdout. Its stdin closing (the shell gone) ends it.
import { readSync, writeSync } from 'node:fs';
import {
  accelerationNever,
  type GtkWebKit,
  ioError,
  ioHangUp,
  ioIn,
  loadGtkWebKit,
  type Pointer,
  policyNavigation,
  policyNewWindow,
  webkitPackage,
} from './gtk-webkit.ts';
import { type FromWindow, fromWindow, type ToWindow, toWindow } from './messages.ts';
import { navigationVerdict } from './navigation.ts';

const shellTitle = 'Keel workbench';
/** Where the SPA keeps its key and its notification choice (`packages/workbench-web/src`). */
const keyStorageName = 'keel-workbench-api-key';
const notifyStorageName = 'keel-workbench-notify';

/** Ends this process; once WebKit is loaded, without exit handlers (WebKit crashes in them). */
let exitNow = (code: number): never => process.exit(code);

function send(message: FromWindow): void {
  try {
    writeSync(1, `${JSON.stringify(fromWindow.parse(message))}\n`);
  } catch {
    exitNow(0); // the shell is gone
  }
}

async function loadOrSayWhy(): Promise<GtkWebKit> {
  try {
    return await loadGtkWebKit();
  } catch (error) {
    const why = (error as Error).message.split('\n')[0];
    const noKoffi = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND';
    send({
      type: 'unavailable',
      reason: noKoffi
        ? `the koffi package is missing (${why}); install @keel/desktop again`
        : `WebKitGTK could not be loaded (${why}); on Debian: apt-get install ${webkitPackage}`,
    });
    return exitNow(3);
  }
}

const gtk = await loadOrSayWhy();
gtk.g_set_prgname('keel-desktop');
if (!gtk.gtk_init_check(null, null)) {
  send({
    type: 'unavailable',
    reason: 'no display to open a window on (DISPLAY and WAYLAND_DISPLAY unset or unreachable)',
  });
  exitNow(3);
}
exitNow = (code) => {
  gtk._exit(code);
  return process.exit(code);
};

let window: Pointer | undefined;
let view: Pointer | undefined;
let origin = '';
let pageTitle = shellTitle;
let waiting = 0;

const setTitle = () => {
  if (window) gtk.gtk_window_set_title(window, `${waiting > 0 ? `(${waiting}) ` : ''}${pageTitle}`);
};

function open(message: Extract<ToWindow, { type: 'open' }>): void {
  origin = new URL(message.url).origin;
  // Variadic: property name and value pairs, each value preceded by its C type for koffi, then NULL.
  const data = gtk.webkit_website_data_manager_new(
    'base-data-directory',
    'str',
    `${message.data_dir}/data`,
    'str',
    'base-cache-directory',
    'str',
    `${message.data_dir}/cache`,
    'void *',
    null,
  );
  const context = gtk.webkit_web_context_new_with_website_data_manager(data);
  gtk.onScheme(context, beaconScheme, onBeacon);
  const shown = gtk.gtk_window_new(0);
  const page = gtk.webkit_web_view_new_with_context(context);
  window = shown;
  view = page;
  // Composited on the CPU: the workbench's pages need no GPU, and the web process then takes about 100 MB
  // less (measured under Xvfb, whose GL is software; docs/decisions/2026-11-28-desktop-shell.md).
  gtk.webkit_settings_set_hardware_acceleration_policy(
    gtk.webkit_web_view_get_settings(page),
    accelerationNever,
  );
  gtk.gtk_window_set_default_size(shown, 1280, 800);
  setTitle();
  gtk.gtk_container_add(shown, page);
  const content = gtk.webkit_web_view_get_user_content_manager(page);
  // The page keeps the service's key in its storage (as a browser would after the key prompt).
  if (message.api_key) {
    const script = `try{localStorage.setItem(${JSON.stringify(keyStorageName)},${JSON.stringify(message.api_key)})}catch{}`;
    gtk.webkit_user_content_manager_add_script(content, gtk.userScript(origin, script));
  }
  gtk.webkit_user_content_manager_add_script(content, gtk.userScript(origin, pageWatcher));
  gtk.connect(page, 'decide-policy', onPolicy, 'decide');
  gtk.connect(page, 'permission-request', onPermission, 'handled');
  // The shell sends its own notifications for every task; the page's would repeat them.
  gtk.connect(page, 'show-notification', () => true, 'handled');
  gtk.connect(page, 'notify::title', onTitle, 'signal');
  gtk.connect(shown, 'destroy', onDestroy, 'signal');
  gtk.webkit_web_view_load_uri(page, message.url);
  gtk.gtk_widget_show_all(shown);
  send({ type: 'shown' });
}

const beaconScheme = 'keel-desktop';

/**
 * Runs in the page: tells the window its first heading as it renders (the SPA is up, and which page it
 * shows) and the page's "Notify me when work ends" choice, now and whenever the page changes it, as image
 * requests of the beacon scheme (answered with an error; nothing loads).
 */
const pageWatcher = `
  const beacon = (kind, value) => { new Image().src = '${beaconScheme}:' + kind + '?' + encodeURIComponent(value); };
  const store = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    store.call(this, key, value);
    if (key === ${JSON.stringify(notifyStorageName)}) beacon('notify', String(value));
  };
  try { beacon('notify', localStorage.getItem(${JSON.stringify(notifyStorageName)}) ?? ''); } catch {}
  let sent = '';
  new MutationObserver(() => {
    const text = (document.querySelector('h1')?.textContent ?? '').trim().slice(0, 200);
    // Said after the frame that shows it: the line means the page is on screen, not only in the DOM.
    if (text && text !== sent) { sent = text; requestAnimationFrame(() => requestAnimationFrame(() => beacon('heading', text))); }
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

function onBeacon(uri: string): void {
  const match = /^keel-desktop:(heading|notify)\?(.*)$/.exec(uri);
  if (!match) return;
  let value: string;
  try {
    value = decodeURIComponent(match[2] ?? '');
  } catch {
    return;
  }
  if (match[1] === 'heading') send({ type: 'page', heading: value.slice(0, 200), title: pageTitle });
  else send({ type: 'notify_choice', on: value === '1' });
}

function onTitle(): void {
  if (!view) return;
  pageTitle = gtk.webkit_web_view_get_title(view) || shellTitle;
  setTitle();
}

function onPolicy(_view: Pointer, decision: Pointer, type: number): boolean {
  if (type !== policyNavigation && type !== policyNewWindow) return false; // responses: WebKit's default
  const action = gtk.webkit_navigation_policy_decision_get_navigation_action(decision);
  const target = gtk.webkit_uri_request_get_uri(gtk.webkit_navigation_action_get_request(action)) ?? '';
  const verdict = navigationVerdict(origin, target, type === policyNewWindow);
  if (verdict === 'load') {
    gtk.webkit_policy_decision_use(decision);
  } else {
    gtk.webkit_policy_decision_ignore(decision);
    if (verdict === 'browser') send({ type: 'external', url: target });
  }
  return true;
}

/** The page may show notifications (the SPA's toggle asks); nothing else (camera, location, …). */
function onPermission(_view: Pointer, request: Pointer): boolean {
  const notifications = gtk.webkit_notification_permission_request_get_type();
  if (gtk.g_type_check_instance_is_a(request, notifications)) gtk.webkit_permission_request_allow(request);
  else gtk.webkit_permission_request_deny(request);
  return true;
}

function onDestroy(): void {
  window = undefined;
  send({ type: 'closed' });
  gtk.gtk_main_quit();
}

function handle(message: ToWindow): void {
  switch (message.type) {
    case 'open':
      return; // only the first line opens the window (see below)
    case 'focus':
      if (!window || !view) return;
      if (message.url && new URL(message.url).origin === origin)
        gtk.webkit_web_view_load_uri(view, message.url);
      gtk.gtk_window_deiconify(window);
      gtk.gtk_window_present(window);
      send({ type: 'focused' });
      return;
    case 'attention':
      waiting = message.count;
      setTitle();
      return;
    case 'close':
      if (window) gtk.gtk_widget_destroy(window);
      else gtk.gtk_main_quit();
  }
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

// The first line opens the window, before GTK's loop runs: koffi callbacks registered from inside another
// callback stop every later one (seen with koffi 3.3), so every callback is registered here, at the top.
let pending = '';
const buffer = Buffer.alloc(64 * 1024);
const pause = new Int32Array(new SharedArrayBuffer(4));
while (!pending.includes('\n')) {
  let read: number;
  try {
    read = readSync(0, buffer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    Atomics.wait(pause, 0, 0, 10); // a non-blocking stdin with nothing yet
    continue;
  }
  if (read === 0) exitNow(0);
  pending += buffer.subarray(0, read).toString('utf8');
}
const firstLine = pending.slice(0, pending.indexOf('\n'));
pending = pending.slice(pending.indexOf('\n') + 1);
const opening = toWindow.safeParse(parseJson(firstLine));
if (!opening.success || opening.data.type !== 'open') exitNow(2);
else open(opening.data);

// Every later line, read as GLib says it is there (this thread is GTK's while its loop runs).
const onInput = gtk.callback(
  'fd',
  (fd: number, condition: number): boolean => {
    const read = condition & ioIn ? readSync(fd, buffer) : 0;
    if (read === 0) {
      gtk.gtk_main_quit();
      return false;
    }
    pending += buffer.subarray(0, read).toString('utf8');
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      const parsed = toWindow.safeParse(parseJson(line));
      if (parsed.success) handle(parsed.data);
    }
    return true;
  },
  true,
);
gtk.g_unix_fd_add(0, ioIn | ioHangUp | ioError, onInput, null);
gtk.gtk_main();
exitNow(0);
