package dev.aerun.e2e;

/** Sessions on Jetty's ee8 environment. */
class Ee8SessionsTest extends SessionsTest {
  @Override
  String ee() {
    return "EE8";
  }

  @Override
  String war() {
    return "sample-sessions-ee8.war";
  }
}
