package dev.aerun.runtime.contract;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Keeps the app from framing its response: a {@code Transfer-Encoding} it sets is dropped, so the
 * server frames the body itself ({@code Content-Length}, or chunked), the same in both modes. Left
 * alone, Jetty sent an app's {@code Transfer-Encoding: gzip} beside its {@code Content-Length}: a
 * response no client can frame (RFC 9112 §6.1), and a way to smuggle one response into another
 * through a proxy. Applies to the app's own headers only; Jetty's generator adds its own.
 */
public final class TransferEncodingHandler extends Handler.Wrapper {
  public TransferEncodingHandler(Handler app) {
    super(app);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    return super.handle(request, new AppFraming(request, response), callback);
  }

  private static final class AppFraming extends Response.Wrapper {
    private final HttpFields.Mutable headers;

    AppFraming(Request request, Response wrapped) {
      super(request, wrapped);
      this.headers =
          new HttpFields.Mutable.Wrapper(wrapped.getHeaders()) {
            @Override
            public HttpField onAddField(HttpField field) {
              return field.getHeader() == HttpHeader.TRANSFER_ENCODING ? null : field;
            }

            @Override
            public HttpField onReplaceField(HttpField oldField, HttpField newField) {
              return newField.getHeader() == HttpHeader.TRANSFER_ENCODING ? oldField : newField;
            }
          };
    }

    @Override
    public HttpFields.Mutable getHeaders() {
      return headers;
    }
  }
}
