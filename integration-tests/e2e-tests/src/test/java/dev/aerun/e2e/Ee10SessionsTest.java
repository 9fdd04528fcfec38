package dev.aerun.e2e;

/** Sessions on Jetty's ee10 environment. */
class Ee10SessionsTest extends SessionsTest {
  @Override
  String ee() {
    return "EE10";
  }

  @Override
  String war() {
    return "sample-sessions-ee10.war";
  }
}
