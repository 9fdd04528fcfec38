package dev.aerun.e2e;

/** Roles and login on Jetty's ee11 environment. */
class Ee11LoginTest extends LoginTest {
  @Override
  String war() {
    return "sample-login-ee11.war";
  }
}
