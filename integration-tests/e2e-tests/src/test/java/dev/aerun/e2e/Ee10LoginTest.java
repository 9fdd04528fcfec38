package dev.aerun.e2e;

/** Roles and login on Jetty's ee10 environment. */
class Ee10LoginTest extends LoginTest {
  @Override
  String war() {
    return "sample-login-ee10.war";
  }
}
