package dev.aerun.e2e;

class Ee10HeaderContractTest extends HeaderContractTest {
  Ee10HeaderContractTest() {
    super("sample-ee10-app.war");
  }
}
