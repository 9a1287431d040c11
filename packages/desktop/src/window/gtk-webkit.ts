// The few GTK 3 and WebKitGTK 4.1 calls the window needs, bound through koffi (prebuilt in its npm
// packages; nothing is compiled at install) to the system's libraries: Debian's `libwebkit2gtk-4.1-0`.
// Pointers are koffi's BigInts; every GObject is an opaque `void *` here.
//
// koffi runs C on a stack of its own, so GTK's loop does too; JavaScriptCore, started in this process, finds
// itself outside its thread's stack and aborts (JSC::sanitizeStackForVM). So nothing here makes a JSC
// value (no script message handlers, no evaluated results): the page speaks through a URI scheme instead.
import type Koffi from 'koffi';
import type { LibraryHandle } from 'koffi';

export type Pointer = bigint;

/** The Debian package that carries the libraries, for the message when they are missing. */
export const webkitPackage = 'libwebkit2gtk-4.1-0';

// WebKitPolicyDecisionType and WebKitLoadEvent values (webkit2/WebKitWebView.h).
export const policyNavigation = 0;
export const policyNewWindow = 1;
export const loadFinished = 3;
/** WebKitHardwareAccelerationPolicy: never composite on the GPU (software GL under Xvfb costs memory). */
export const accelerationNever = 2;
// GIOCondition bits (glib/giochannel.h).
export const ioIn = 1;
export const ioError = 8;
export const ioHangUp = 16;
// WebKitUserContentInjectedFrames / WebKitUserScriptInjectionTime.
const topFrameOnly = 1;
const atDocumentStart = 0;

export type GtkWebKit = ReturnType<typeof bind>;

/** Loads koffi and the libraries; throws (with the library's own message) when one is missing. */
export async function loadGtkWebKit(): Promise<GtkWebKit> {
  const { default: koffi } = await import('koffi');
  return bind(koffi);
}

function bind(koffi: typeof Koffi) {
  const load = (name: string): LibraryHandle => koffi.load(name);
  const glib = load('libglib-2.0.so.0');
  const gobject = load('libgobject-2.0.so.0');
  const gtk = load('libgtk-3.so.0');
  const webkit = load('libwebkit2gtk-4.1.so.0');
  const libc = load('libc.so.6');

  const prototypes = {
    /** `destroy`, `notify::title`, `load-changed` (whose int is the load event): the same shape. */
    signal: koffi.proto('void KeelSignal(void *self, void *argument, void *data)'),
    /** `decide-policy`: answers whether it was handled. */
    decide: koffi.proto('bool KeelDecide(void *self, void *decision, int type, void *data)'),
    /** `permission-request`, `show-notification`. */
    handled: koffi.proto('bool KeelHandled(void *self, void *argument, void *data)'),
    fd: koffi.proto('bool KeelFdReady(int fd, int condition, void *data)'),
    scheme: koffi.proto('void KeelSchemeRequest(void *request, void *data)'),
  };

  const api = {
    koffi,
    prototypes,
    g_set_prgname: glib.func('void g_set_prgname(str name)'),
    g_unix_fd_add: glib.func('uint g_unix_fd_add(int fd, int condition, void *callback, void *data)'),
    g_quark_from_string: glib.func('uint32 g_quark_from_string(str name)'),
    g_error_new_literal: glib.func('void *g_error_new_literal(uint32 domain, int code, str message)'),
    g_error_free: glib.func('void g_error_free(void *error)'),
    /** Ends the process without running exit handlers: WebKit's crash at exit after GTK's loop. */
    _exit: libc.func('void _exit(int status)'),
    g_signal_connect_data: gobject.func(
      'ulong g_signal_connect_data(void *instance, str signal, void *handler, void *data, void *destroy, int flags)',
    ),
    g_type_check_instance_is_a: gobject.func('bool g_type_check_instance_is_a(void *instance, size_t type)'),
    gtk_init_check: gtk.func('bool gtk_init_check(void *argc, void *argv)'),
    gtk_window_new: gtk.func('void *gtk_window_new(int type)'),
    gtk_window_set_title: gtk.func('void gtk_window_set_title(void *window, str title)'),
    gtk_window_set_default_size: gtk.func(
      'void gtk_window_set_default_size(void *window, int width, int height)',
    ),
    gtk_window_present: gtk.func('void gtk_window_present(void *window)'),
    gtk_window_deiconify: gtk.func('void gtk_window_deiconify(void *window)'),
    gtk_container_add: gtk.func('void gtk_container_add(void *container, void *widget)'),
    gtk_widget_show_all: gtk.func('void gtk_widget_show_all(void *widget)'),
    gtk_widget_destroy: gtk.func('void gtk_widget_destroy(void *widget)'),
    gtk_main: gtk.func('void gtk_main()'),
    gtk_main_quit: gtk.func('void gtk_main_quit()'),
    webkit_website_data_manager_new: webkit.func('void *webkit_website_data_manager_new(str first, ...)'),
    webkit_web_context_new_with_website_data_manager: webkit.func(
      'void *webkit_web_context_new_with_website_data_manager(void *manager)',
    ),
    webkit_web_view_new_with_context: webkit.func('void *webkit_web_view_new_with_context(void *context)'),
    webkit_web_view_get_settings: webkit.func('void *webkit_web_view_get_settings(void *view)'),
    webkit_settings_set_hardware_acceleration_policy: webkit.func(
      'void webkit_settings_set_hardware_acceleration_policy(void *settings, int policy)',
    ),
    webkit_web_view_load_uri: webkit.func('void webkit_web_view_load_uri(void *view, str uri)'),
    webkit_web_view_get_title: webkit.func('str webkit_web_view_get_title(void *view)'),
    webkit_web_view_get_user_content_manager: webkit.func(
      'void *webkit_web_view_get_user_content_manager(void *view)',
    ),
    webkit_web_context_register_uri_scheme: webkit.func(
      'void webkit_web_context_register_uri_scheme(void *context, str scheme, void *callback, void *data, void *destroy)',
    ),
    webkit_uri_scheme_request_get_uri: webkit.func('str webkit_uri_scheme_request_get_uri(void *request)'),
    webkit_uri_scheme_request_finish_error: webkit.func(
      'void webkit_uri_scheme_request_finish_error(void *request, void *error)',
    ),
    webkit_user_script_new: webkit.func(
      'void *webkit_user_script_new(str source, int frames, int time, const char **allow, const char **block)',
    ),
    webkit_user_content_manager_add_script: webkit.func(
      'void webkit_user_content_manager_add_script(void *manager, void *script)',
    ),
    webkit_navigation_policy_decision_get_navigation_action: webkit.func(
      'void *webkit_navigation_policy_decision_get_navigation_action(void *decision)',
    ),
    webkit_navigation_action_get_request: webkit.func(
      'void *webkit_navigation_action_get_request(void *action)',
    ),
    webkit_uri_request_get_uri: webkit.func('str webkit_uri_request_get_uri(void *request)'),
    webkit_policy_decision_use: webkit.func('void webkit_policy_decision_use(void *decision)'),
    webkit_policy_decision_ignore: webkit.func('void webkit_policy_decision_ignore(void *decision)'),
    webkit_permission_request_allow: webkit.func('void webkit_permission_request_allow(void *request)'),
    webkit_permission_request_deny: webkit.func('void webkit_permission_request_deny(void *request)'),
    webkit_notification_permission_request_get_type: webkit.func(
      'size_t webkit_notification_permission_request_get_type()',
    ),
  };

  /**
   * A C callback of `type` calling `handler`. A JavaScript exception must not cross into C (koffi would keep
   * it pending, and every later callback of the loop would fail silently): it is written to stderr, and C
   * gets `fallback`. The callback stays registered for the process's life.
   */
  const callback = <A extends unknown[], R>(
    type: keyof typeof prototypes,
    handler: (...args: A) => R,
    fallback: R,
  ) =>
    koffi.register((...args: A) => {
      try {
        return handler(...args);
      } catch (error) {
        process.stderr.write(`keel-desktop window: ${(error as Error).stack ?? error}\n`);
        return fallback;
      }
    }, koffi.pointer(prototypes[type]));

  /** Connects `handler` to `signal` of `instance`. */
  const connect = <A extends unknown[]>(
    instance: Pointer,
    signal: string,
    handler: (...args: A) => unknown,
    type: keyof typeof prototypes,
  ) => {
    const registered = callback(type, handler, false);
    api.g_signal_connect_data(instance, signal, registered, null, null, 0);
  };

  /** Answers every request of `scheme` with `handler(uri)` and an error (nothing is loaded from it). */
  const onScheme = (context: Pointer, scheme: string, handler: (uri: string) => void) => {
    const domain = api.g_quark_from_string('keel-desktop');
    const answer = callback(
      'scheme',
      (request: Pointer) => {
        const uri = api.webkit_uri_scheme_request_get_uri(request) ?? '';
        // Finished first: whatever the handler does, the page's request does not hang.
        const error = api.g_error_new_literal(domain, 1, 'not a resource');
        api.webkit_uri_scheme_request_finish_error(request, error);
        api.g_error_free(error);
        handler(uri);
      },
      undefined,
    );
    api.webkit_web_context_register_uri_scheme(context, scheme, answer, null, null);
  };

  /**
   * A script run at the start of every top-level page. WebKit's URL patterns cannot name a port, so the
   * script checks the page's origin itself.
   */
  const userScript = (origin: string, source: string) => {
    const guarded = `if (location.origin === ${JSON.stringify(origin)}) {${source}}`;
    return api.webkit_user_script_new(guarded, topFrameOnly, atDocumentStart, null, null);
  };

  return { ...api, callback, connect, onScheme, userScript };
}
