package dev.aerun.e2e.parity;

class Ee8TrustedParityTest extends ParityTest {
  Ee8TrustedParityTest() {
    super("sample-ee8-app.war", ParityCase.Variant.TRUSTED);
  }
}
