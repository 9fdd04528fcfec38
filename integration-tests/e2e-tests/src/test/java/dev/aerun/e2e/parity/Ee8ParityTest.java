package dev.aerun.e2e.parity;

class Ee8ParityTest extends DirectClientParityTest {
  Ee8ParityTest() {
    super("sample-ee8-app.war");
  }
}
