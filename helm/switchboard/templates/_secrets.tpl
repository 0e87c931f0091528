{{/*
Where each secret value lives. Three Secrets can hold them:
- secrets.existingSecret, yours: api-keys, admin-keys (optional), metrics-api-key, the external
  URLs, existingSecretEnv;
- the chart's Secret <fullname> (secret.yaml): what values give (secrets.*, the in-chart stores'
  passwords, the external URLs);
- <fullname>-generated, for a value nobody gave (the trial's operator key and store passwords). The chart
  never renders it: a hook Job (secret-generator.yaml) creates it once and later adds only keys it
  lacks, so a render has no random part, an upgrade or an Argo CD sync never changes a password, and
  no template needs `lookup`.
Returns JSON {key: {"secret": name, "value": the value given in values, "prefix": what a generated
value starts with, "optional": true when the pods start without it}}, only for the keys this release uses.
*/}}
{{- define "switchboard.secretSources" -}}
{{- $chart := include "switchboard.fullname" . }}
{{- $generated := include "switchboard.componentName" (list . "generated") }}
{{- $existing := .Values.secrets.existingSecret }}
{{- $sources := dict }}
{{- /* Values the chart can generate: [value in values, prefix of a generated one]. */}}
{{- $generatable := dict }}
{{- if not $existing }}
{{- /* The first key of an install is an operator's: it opens the console. */}}
{{- $_ := set $generatable "admin-keys" (list .Values.secrets.adminKeys "admin=") }}
{{- if .Values.serviceMonitor.enabled }}
{{- $_ := set $generatable "metrics-api-key" (list .Values.secrets.metricsApiKey "") }}
{{- end }}
{{- end }}
{{- if .Values.postgresql.deploy }}
{{- $_ := set $generatable "postgres-password" (list .Values.postgresql.auth.password "") }}
{{- end }}
{{- if .Values.redis.deploy }}
{{- $_ := set $generatable "redis-password" (list .Values.redis.auth.password "") }}
{{- end }}
{{- range $key, $given := $generatable }}
{{- if index $given 0 }}
{{- $_ := set $sources $key (dict "secret" $chart "value" (index $given 0)) }}
{{- else }}
{{- $_ := set $sources $key (dict "secret" $generated "prefix" (index $given 1)) }}
{{- end }}
{{- end }}
{{- /* Values only the user can give. */}}
{{- if $existing }}
{{- /* A Secret made before admin-keys existed lacks it: the pods start without operator keys. */}}
{{- $_ := set $sources "admin-keys" (dict "secret" $existing "optional" true) }}
{{- $keys := concat (list "api-keys") .Values.secrets.existingSecretEnv }}
{{- if .Values.serviceMonitor.enabled }}{{ $keys = append $keys "metrics-api-key" }}{{ end }}
{{- if not .Values.postgresql.deploy }}{{ $keys = append $keys "database-url" }}{{ end }}
{{- if not .Values.redis.deploy }}{{ $keys = append $keys "redis-url" }}{{ end }}
{{- range $keys }}
{{- $_ := set $sources . (dict "secret" $existing) }}
{{- end }}
{{- else }}
{{- $given := deepCopy .Values.secrets.env }}
{{- with .Values.secrets.apiKeys }}{{ $_ := set $given "api-keys" . }}{{ end }}
{{- if not .Values.postgresql.deploy }}{{ $_ := set $given "database-url" .Values.postgresql.externalUrl }}{{ end }}
{{- if not .Values.redis.deploy }}
{{- $_ := set $given "redis-url" .Values.redis.externalUrl }}
{{- /* KEDA cannot read a URL: it gets the credentials in it apart. */}}
{{- if .Values.worker.keda.enabled }}
{{- $redis := include "switchboard.externalRedis" . | fromJson }}
{{- if $redis.username }}{{ $_ := set $given "redis-username" $redis.username }}{{ end }}
{{- if $redis.password }}{{ $_ := set $given "redis-password" $redis.password }}{{ end }}
{{- end }}
{{- end }}
{{- range $key, $value := $given }}
{{- $_ := set $sources $key (dict "secret" $chart "value" (toString $value)) }}
{{- end }}
{{- end }}
{{- toJson $sources }}
{{- end }}

{{/* The name of the Secret holding a key this release uses. Call: (list $ "api-keys") */}}
{{- define "switchboard.secretName" -}}
{{- $sources := include "switchboard.secretSources" (index . 0) | fromJson }}
{{- $source := index $sources (index . 1) }}
{{- if not $source }}{{ fail (printf "the chart reads %s, which no Secret holds (a bug in the chart)" (index . 1)) }}{{ end }}
{{- $source.secret }}
{{- end }}

{{/* Whether this release reads a secret key (api-keys is given or not). Call: (list $ "api-keys") */}}
{{- define "switchboard.hasSecret" -}}
{{- if hasKey (include "switchboard.secretSources" (index . 0) | fromJson) (index . 1) }}true{{ end }}
{{- end }}

{{/* An env entry whose value is a key of the Secret holding it. Call: (list $ "DATABASE_URL" "database-url") */}}
{{- define "switchboard.secretEnv" -}}
{{- $source := index (include "switchboard.secretSources" (index . 0) | fromJson) (index . 2) }}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef:
      name: {{ include "switchboard.secretName" (list (index . 0) (index . 2)) }}
      key: {{ index . 2 }}
      {{- if and $source $source.optional }}
      optional: true
      {{- end }}
{{- end }}

{{/*
DATABASE_URL. The in-chart Postgres's is put together from its password at container start
(Kubernetes expands $(VAR)), so the password, given or generated, lives in one place; an external
URL is read whole from `secret` (the migration's), else from the Secret holding database-url.
Call: (list $ secret) or (list $ "")
*/}}
{{- define "switchboard.databaseUrlEnv" -}}
{{- $root := index . 0 }}
{{- if $root.Values.postgresql.deploy }}
{{- $auth := $root.Values.postgresql.auth }}
{{- include "switchboard.secretEnv" (list $root "SWITCHBOARD_POSTGRES_PASSWORD" "postgres-password") }}
- name: DATABASE_URL
  value: {{ printf "postgresql://%s:$(SWITCHBOARD_POSTGRES_PASSWORD)@%s:5432/%s" $auth.username (include "switchboard.componentName" (list $root "postgresql")) $auth.database | quote }}
{{- else }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ index . 1 | default (include "switchboard.secretName" (list $root "database-url")) }}
      key: database-url
{{- end }}
{{- end }}

{{/* REDIS_URL, put together like DATABASE_URL for the in-chart Redis. */}}
{{- define "switchboard.redisUrlEnv" -}}
{{- if .Values.redis.deploy }}
{{- include "switchboard.secretEnv" (list . "SWITCHBOARD_REDIS_PASSWORD" "redis-password") }}
- name: REDIS_URL
  value: {{ printf "redis://:$(SWITCHBOARD_REDIS_PASSWORD)@%s:6379" (include "switchboard.componentName" (list . "redis")) | quote }}
{{- else }}
{{- include "switchboard.secretEnv" (list . "REDIS_URL" "redis-url") }}
{{- end }}
{{- end }}

{{/*
The Secret the migration Job reads DATABASE_URL from. Before an install the chart's Secret does not
exist yet, so with an external URL in values the Job gets a hook Secret of its own
(migration-secret.yaml); with postgresql.deploy the Job runs after the install.
*/}}
{{- define "switchboard.migrationSecretName" -}}
{{- if .Values.secrets.existingSecret }}
{{- .Values.secrets.existingSecret }}
{{- else }}
{{- include "switchboard.componentName" (list . "migrate") }}
{{- end }}
{{- end }}

{{/*
Rolls the pods when a secret value in values changes (generated values never change; a change
inside secrets.existingSecret needs `kubectl rollout restart`).
*/}}
{{- define "switchboard.secretChecksum" -}}
{{- list .Values.secrets .Values.postgresql.externalUrl .Values.postgresql.auth .Values.redis.externalUrl .Values.redis.auth .Values.serviceMonitor.enabled | toJson | sha256sum }}
{{- end }}
