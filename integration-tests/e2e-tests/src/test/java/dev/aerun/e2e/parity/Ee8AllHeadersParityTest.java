package dev.aerun.e2e.parity;

class Ee8AllHeadersParityTest extends ParityTest {
  Ee8AllHeadersParityTest() {
    super("sample-ee8-app.war", ParityCase.Variant.ALL_HEADERS);
  }
}
