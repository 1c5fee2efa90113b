// /apiApply (no side bar): apply for access to the LanguageTool-compatible API. An operator reviews it; once
// approved the user creates an API key in the personal center.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Field, Heading, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../../../api/client';
import { userInfoQuery } from '../../../api/queries';
import { translateNotice } from '../../notices';

const PHONE = /^1\d{10}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export default function ApiApply() {
  const { t, i18n } = useLingui();
  const me = useQuery(userInfoQuery({ silent: true }));
  const [form, setForm] = useState({ name: '', phone: '', company: '', email: '', usage: '' });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const phone = form.phone || me.data?.phone || '';
  const submit = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/crm/component/app/add_one_checkno', {
          body: {
            name: form.name.trim(),
            phone,
            source: 'apiApply',
            ...(form.company.trim() ? { company: form.company.trim() } : {}),
            ...(form.email.trim() ? { email: form.email.trim() } : {}),
            ...(form.usage.trim() ? { usage: form.usage.trim() } : {}),
          },
        }),
        { silent: true },
      ),
  });
  const valid =
    form.name.trim().length >= 1 && PHONE.test(phone) && (!form.email.trim() || EMAIL.test(form.email.trim()));
  return (
    <Box
      maxW="2xl"
      mx="auto"
      mt={{ base: '4', md: '10' }}
      bg="panel"
      borderWidth="1px"
      borderRadius="xl"
      p={{ base: '6', md: '8' }}
      data-testid="api-apply"
    >
      <Heading as="h2" size="lg" mb="2">
        <Trans>申请 API 接入</Trans>
      </Heading>
      <Text color="fg.muted" mb="6">
        <Trans>API 与 LanguageTool 的接口兼容，可接入编辑器、内容管理系统和写作工具。提交后我们会与您联系。</Trans>
      </Text>
      {submit.isSuccess ? (
        <Stack gap="4" data-testid="api-apply-done">
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Title>
              <Trans>申请已提交，我们会尽快与您联系。</Trans>
            </Alert.Title>
          </Alert.Root>
          <Link href="/" asChild>
            <Button as="a" variant="outline" alignSelf="flex-start">
              <Trans>返回工作台</Trans>
            </Button>
          </Link>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) submit.mutate();
          }}
        >
          <Stack gap="4">
            {submit.isError ? (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{translateNotice(i18n, submit.error.message)}</Alert.Title>
              </Alert.Root>
            ) : null}
            <Field.Root required>
              <Field.Label>
                <Trans>联系人</Trans>
                <Field.RequiredIndicator />
              </Field.Label>
              <Input value={form.name} onChange={set('name')} maxLength={50} data-testid="api-apply-name" />
            </Field.Root>
            <Field.Root required invalid={!!phone && !PHONE.test(phone)}>
              <Field.Label>
                <Trans>联系电话</Trans>
                <Field.RequiredIndicator />
              </Field.Label>
              <Input value={phone} onChange={set('phone')} inputMode="tel" maxLength={11} />
            </Field.Root>
            <Field.Root>
              <Field.Label>
                <Trans>单位</Trans>
              </Field.Label>
              <Input value={form.company} onChange={set('company')} maxLength={100} />
            </Field.Root>
            <Field.Root invalid={!!form.email.trim() && !EMAIL.test(form.email.trim())}>
              <Field.Label>
                <Trans>邮箱</Trans>
              </Field.Label>
              <Input value={form.email} onChange={set('email')} type="email" maxLength={100} />
            </Field.Root>
            <Field.Root>
              <Field.Label>
                <Trans>用途</Trans>
              </Field.Label>
              <Textarea
                value={form.usage}
                onChange={set('usage')}
                maxLength={1000}
                rows={3}
                placeholder={t`例如：在内容管理系统中发稿前自动校对`}
              />
            </Field.Root>
            <Button
              type="submit"
              colorPalette="blue"
              disabled={!valid}
              loading={submit.isPending}
              alignSelf="flex-start"
              data-testid="api-apply-submit"
            >
              <Trans>提交申请</Trans>
            </Button>
          </Stack>
        </form>
      )}
    </Box>
  );
}
