package dev.aerun.runtime.contract;

/**
 * A task-queue or cron request, as the platform front end announced it. Fields not sent are null
 * (or -1 for the retry count).
 *
 * @param queueName {@code X-AppEngine-QueueName}
 * @param taskName {@code X-AppEngine-TaskName}
 * @param retryCount {@code X-AppEngine-TaskRetryCount}, or -1 when absent or not a number
 * @param cron {@code X-AppEngine-Cron: true}
 */
public record TaskInfo(String queueName, String taskName, int retryCount, boolean cron) {}
