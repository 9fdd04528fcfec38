package dev.aerun.e2e;

class Ee10SampleAppTest extends SampleAppTest {
  Ee10SampleAppTest() {
    super("sample-ee10-app.war", "EE10");
  }
}
