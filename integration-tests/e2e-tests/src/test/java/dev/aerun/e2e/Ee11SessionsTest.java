package dev.aerun.e2e;

/** Sessions on Jetty's ee11 environment. */
class Ee11SessionsTest extends SessionsTest {
  @Override
  String ee() {
    return "EE11";
  }

  @Override
  String war() {
    return "sample-sessions-ee11.war";
  }
}
