package dev.aerun.e2e.parity;

class Ee10AllHeadersParityTest extends ParityTest {
  Ee10AllHeadersParityTest() {
    super("sample-ee10-app.war", ParityCase.Variant.ALL_HEADERS);
  }
}
