package dev.aerun.e2e;

import dev.aerun.testing.RuntimeProcess;

/**
 * {@link DevConsoleTest} in legacy RPC mode: the console's handlers are on the runtime side of the
 * gRPC call, behind the front end that buffers each request.
 */
class DevConsoleLegacyTest extends DevConsoleTest {
  @Override
  RuntimeProcess.Launch inMode(RuntimeProcess.Launch launch) {
    return launch.property("appengine.use.HttpConnector", "false");
  }

  @Override
  String modeShown() {
    return "Mode: legacy RPC";
  }
}
