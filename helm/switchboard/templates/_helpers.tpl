{{/* Names, labels and the values several templates share. */}}

{{- define "switchboard.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "switchboard.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* A component's resource name, `<fullname>-<suffix>`, within 63 characters. Call: (list $ "worker") */}}
{{- define "switchboard.componentName" -}}
{{- $root := index . 0 }}
{{- $suffix := index . 1 }}
{{- printf "%s-%s" (include "switchboard.fullname" $root | trunc (int (sub 62 (len $suffix))) | trimSuffix "-") $suffix }}
{{- end }}

{{- define "switchboard.selectorLabels" -}}
app.kubernetes.io/name: {{ include "switchboard.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "switchboard.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "switchboard.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Call: (list $ "api") */}}
{{- define "switchboard.componentSelectorLabels" -}}
{{ include "switchboard.selectorLabels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/* Call: (list $ "api") */}}
{{- define "switchboard.componentLabels" -}}
{{ include "switchboard.labels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "switchboard.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{- define "switchboard.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "switchboard.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* SWITCHBOARD_PUBLIC_URL: publicUrl, else the first ingress host; empty when neither. */}}
{{- define "switchboard.publicUrl" -}}
{{- if .Values.publicUrl }}
{{- .Values.publicUrl }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts }}
{{- printf "%s://%s" (ternary "https" "http" (gt (len .Values.ingress.tls) 0)) (first .Values.ingress.hosts).host }}
{{- end }}
{{- end }}

{{/*
Secrets. The app's own values (api-keys, the external URLs, extra env) live in
secrets.existingSecret or, without it, in the chart's Secret; the in-chart stores' credentials and
URLs always live in the chart's Secret.
*/}}
{{- define "switchboard.appSecretName" -}}
{{- .Values.secrets.existingSecret | default (include "switchboard.fullname" .) }}
{{- end }}

{{- define "switchboard.createsSecret" -}}
{{- if or (not .Values.secrets.existingSecret) .Values.postgresql.deploy .Values.redis.deploy }}true{{ end }}
{{- end }}

{{- define "switchboard.databaseUrlSecretName" -}}
{{- if .Values.postgresql.deploy }}{{ include "switchboard.fullname" . }}{{ else }}{{ include "switchboard.appSecretName" . }}{{ end }}
{{- end }}

{{- define "switchboard.redisUrlSecretName" -}}
{{- if .Values.redis.deploy }}{{ include "switchboard.fullname" . }}{{ else }}{{ include "switchboard.appSecretName" . }}{{ end }}
{{- end }}

{{/*
The Secret the migration Job reads DATABASE_URL from. Before an install the chart's Secret does not
exist yet, so with an external URL in values the Job gets a hook Secret of its own
(migration-secret.yaml); with postgresql.deploy the Job runs after the install.
*/}}
{{- define "switchboard.migrationSecretName" -}}
{{- if or .Values.postgresql.deploy .Values.secrets.existingSecret }}
{{- include "switchboard.databaseUrlSecretName" . }}
{{- else }}
{{- include "switchboard.componentName" (list . "migrate") }}
{{- end }}
{{- end }}

{{/*
A secret value: the one in values, else the one the release's Secret already holds (so generated
values survive upgrades), else `prefix` + 32 random characters. `helm template` cannot look the
Secret up, so there a generated value changes on every render.
Call: (dict "value" .Values.x "previous" $data "key" "api-keys" "prefix" "admin=")
*/}}
{{- define "switchboard.keptSecret" -}}
{{- if .value }}
{{- .value }}
{{- else if hasKey .previous .key }}
{{- index .previous .key | b64dec }}
{{- else }}
{{- printf "%s%s" (.prefix | default "") (randAlphaNum 32) }}
{{- end }}
{{- end }}

{{/*
Rolls the pods when a secret value in values changes (generated values never change; a change
inside secrets.existingSecret needs `kubectl rollout restart`).
*/}}
{{- define "switchboard.secretChecksum" -}}
{{- list .Values.secrets .Values.postgresql.externalUrl .Values.postgresql.auth .Values.redis.externalUrl .Values.redis.auth .Values.serviceMonitor.enabled | toJson | sha256sum }}
{{- end }}

{{/*
The TOML the ConfigMap holds: .Values.config plus the Service's own names in
mcp_server.allowed_hosts, so in-cluster clients reach /mcp through the Service.
*/}}
{{- define "switchboard.configToml" -}}
{{- $config := deepCopy (.Values.config | default dict) }}
{{- $mcpServer := get $config "mcp_server" | default dict }}
{{- $service := include "switchboard.fullname" . }}
{{- $namespace := .Release.Namespace }}
{{- $serviceNames := list $service (printf "%s.%s" $service $namespace) (printf "%s.%s.svc" $service $namespace) (printf "%s.%s.svc.cluster.local" $service $namespace) }}
{{- $_ := set $mcpServer "allowed_hosts" (concat (get $mcpServer "allowed_hosts" | default list) $serviceNames | uniq) }}
{{- $_ := set $config "mcp_server" $mcpServer }}
{{- print "# Rendered by the switchboard Helm chart from .Values.config (README.md, \"Configuration\").\n\n" }}
{{- include "switchboard.toml" (dict "table" $config "path" "") | trim }}
{{- end }}

{{/* The shutdown drain (config.server.shutdown_timeout_secs, default 25 s) and 5 s to exit after it. */}}
{{- define "switchboard.terminationGracePeriodSeconds" -}}
{{- $root := index . 0 }}
{{- $extra := index . 1 }}
{{- add (ceil (dig "server" "shutdown_timeout_secs" 25 ($root.Values.config | default dict))) 5 $extra }}
{{- end }}
