package dev.aerun.e2e.parity;

class Ee10TrustedParityTest extends ParityTest {
  Ee10TrustedParityTest() {
    super("sample-ee10-app.war", ParityCase.Variant.TRUSTED);
  }
}
