package dev.aerun.e2e;

/** What apps see, on Jetty's ee8 environment. */
class Ee8AppViewTest extends AppViewTest {
  Ee8AppViewTest() {
    super("sample-ee8-app.war");
  }
}
