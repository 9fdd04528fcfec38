package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;

/** The API host as the console calls it: one remote-API call, waited for. */
interface HostCalls {
  /** The deadline of every console call: generous, the local services answer in milliseconds. */
  double DEADLINE_SECONDS = 30;

  /**
   * Calls {@code service.method} with {@code request}; returns the service's response.
   *
   * @throws ApiCallException when the service or the host answers with an error, or nothing came
   *     back
   */
  byte[] callBlocking(String service, String method, byte[] request)
      throws ApiCallException, InterruptedException;
}
