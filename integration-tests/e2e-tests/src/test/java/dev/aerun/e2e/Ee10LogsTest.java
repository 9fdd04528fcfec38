package dev.aerun.e2e;

class Ee10LogsTest extends LogsTest {
  Ee10LogsTest() {
    super("sample-logging-ee10-app.war");
  }
}
