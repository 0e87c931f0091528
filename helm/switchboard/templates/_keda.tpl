{{/* What the worker's KEDA ScaledObject (worker-scaledobject.yaml) needs to know of Redis and BullMQ. */}}

{{/*
A BullMQ key of one of Switchboard's queues, as the workers use it: BullMQ's prefix is
`redis.key_prefix` + "bull" (src/queue/queue.module.ts, through RedisService.key), and BullMQ names
a queue's keys `<prefix>:<queue>:<type>` (wait, active, ...). The test derives the same key from
that code. Call: (list $ "agent-turns" "wait")
*/}}
{{- define "switchboard.bullmqKey" -}}
{{- $root := index . 0 }}
{{- $prefix := dig "redis" "key_prefix" "switchboard:" ($root.Values.config | default dict) }}
{{- printf "%sbull:%s:%s" $prefix (index . 1) (index . 2) }}
{{- end }}

{{/*
redis.externalUrl taken apart as Switchboard reads it (src/redis/redis.service.ts, parseRedisUrl):
JSON {address: host:port (6379 by default), enableTLS: rediss://, databaseIndex: the path,
username, password}.
*/}}
{{- define "switchboard.externalRedis" -}}
{{- $url := urlParse .Values.redis.externalUrl }}
{{- $userinfo := splitn ":" 2 $url.userinfo }}
{{- dict
  "address" (ternary $url.host (printf "%s:6379" $url.hostname) (ne $url.host $url.hostname))
  "enableTLS" (eq $url.scheme "rediss")
  "databaseIndex" (int (trimPrefix "/" $url.path | default "0"))
  "username" $userinfo._0
  "password" ($userinfo._1 | default "")
  | toJson }}
{{- end }}

{{/*
How KEDA reaches Redis: JSON {address, enableTLS, databaseIndex, auth: {parameter: {name, key}}},
auth naming the Secret keys of the TriggerAuthentication's `password` and `username`. From the
in-chart Redis, redis.externalUrl (its credentials in the chart's Secret) or, with existingSecret,
worker.keda.redis.
*/}}
{{- define "switchboard.keda.redis" -}}
{{- $auth := dict }}
{{- $connection := dict }}
{{- if .Values.redis.deploy }}
{{- $connection = dict "address" (printf "%s.%s.svc:6379" (include "switchboard.componentName" (list . "redis")) .Release.Namespace) "enableTLS" false "databaseIndex" 0 }}
{{- $_ := set $auth "password" (dict "name" (include "switchboard.secretName" (list . "redis-password")) "key" "redis-password") }}
{{- else if .Values.secrets.existingSecret }}
{{- $values := .Values.worker.keda.redis }}
{{- $connection = pick $values "address" "enableTLS" "databaseIndex" }}
{{- range $parameter, $key := dict "password" $values.passwordKey "username" $values.usernameKey }}
{{- if $key }}{{ $_ := set $auth $parameter (dict "name" $.Values.secrets.existingSecret "key" $key) }}{{ end }}
{{- end }}
{{- else }}
{{- $redis := include "switchboard.externalRedis" . | fromJson }}
{{- $connection = pick $redis "address" "enableTLS" "databaseIndex" }}
{{- range $parameter := list "password" "username" }}
{{- $key := printf "redis-%s" $parameter }}
{{- if index $redis $parameter }}{{ $_ := set $auth $parameter (dict "name" (include "switchboard.secretName" (list $ $key)) "key" $key) }}{{ end }}
{{- end }}
{{- end }}
{{- set $connection "auth" $auth | toJson }}
{{- end }}
