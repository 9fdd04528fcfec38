package dev.aerun.e2e;

/** Roles and login on Jetty's ee8 environment. */
class Ee8LoginTest extends LoginTest {
  @Override
  String war() {
    return "sample-login-ee8.war";
  }
}
