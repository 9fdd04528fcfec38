package dev.aerun.runtime.server;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

class HandlerChainTest {
  private static final class Leaf extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      return false;
    }
  }

  @Test
  void of_linksEachWrapperToTheNext_skippingNulls() {
    Handler.Wrapper first = new Handler.Wrapper();
    Handler.Wrapper second = new Handler.Wrapper();
    Leaf leaf = new Leaf();

    Handler chain = HandlerChain.of(first, null, second, null, leaf);

    assertSame(first, chain);
    assertSame(second, first.getHandler());
    assertSame(leaf, second.getHandler());
  }

  @Test
  void of_aHandlerAfterOneThatIsNoWrapper_isRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> HandlerChain.of(new Handler.Wrapper(), new Leaf(), new Leaf()));
  }

  @Test
  void of_nothing_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> HandlerChain.of(null, null));
  }
}
