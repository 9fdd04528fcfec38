package dev.aerun.rpc.runtime;

import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Counts the response bytes the app tries to write, before the body size limit (which sits in front
 * of this handler) lets them through or refuses them. When a response fails after it was committed,
 * the count tells {@link RpcConnection} whether it failed because it went over the limit ({@code
 * RESPONSE_TOO_LARGE}) or for another reason. Changes nothing the app sees.
 */
public final class ResponseSizeTracker extends Handler.Wrapper {
  public ResponseSizeTracker() {}

  public ResponseSizeTracker(Handler app) {
    super(app);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (request.getConnectionMetaData() instanceof RpcConnection connection) {
      response = new Counting(request, response, connection);
    }
    return super.handle(request, response, callback);
  }

  private static final class Counting extends Response.Wrapper {
    private final RpcConnection connection;

    Counting(Request request, Response wrapped, RpcConnection connection) {
      super(request, wrapped);
      this.connection = connection;
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback callback) {
      if (content != null && content.hasRemaining()) {
        connection.countResponseBytes(content.remaining());
      }
      super.write(last, content, callback);
    }
  }
}
